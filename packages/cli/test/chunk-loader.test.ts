import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chunkFileText } from '../../../scripts/cli-chunks';
import { cacheKey, createChunkLoader, type ChunkSource } from '../src/loader/chunk-loader';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'socialpub-chunk-loader-'));
  dirs.push(d);
  return d;
}

/** A chunk in a file of its own, as the build writes it (scripts/cli-chunks.ts). */
function writeChunk(file: string, code: string): void {
  writeFileSync(file, chunkFileText({ [basename(file)]: code }));
}

/** Chunks in a directory, as dist/ holds them; records which builtins they asked for. */
function dirSource(dir: string, asked: string[] = []): ChunkSource {
  const req = createRequire(join(dir, 'x.js'));
  return {
    code(name) {
      try {
        return readFileSync(join(dir, name), 'utf8');
      } catch {
        return undefined;
      }
    },
    filename: (name) => join(dir, name),
    require(id) {
      asked.push(id);
      return req(id);
    },
  };
}

describe('cacheKey: the cache set of a command line', () => {
  it.each([
    [['schedule', 'list', '--json'], 'schedule.list.json'],
    [['schedule', 'list'], 'schedule.list'],
    [['--json', 'schedule', 'list', '--status', 'all'], 'schedule.list.json'],
    [['status', 'job_abc123', '--json'], 'status.json'],
    [['publish', 'Hello world', '-p', 'twitter'], 'publish'],
    [['publish', 'hello', 'there'], 'publish.hello'],
    [['--version'], 'socialpub'],
    [[], 'socialpub'],
    [['../../etc', 'passwd'], 'socialpub'],
  ])('%j -> %s', (argv, key) => {
    expect(cacheKey(argv)).toBe(key);
  });
});

describe('createChunkLoader', () => {
  it("runs the entry, requires chunks by './name' and anything else through the source, each chunk once", () => {
    const dir = tempDir();
    writeChunk(join(dir, 'entry.js'), "const a = require('./a.js'); const b = require('./a.js'); module.exports = { same: a === b, n: a.count(), sep: require('node:path').sep, file: __filename };");
    writeChunk(join(dir, 'a.js'), 'let n = 0; exports.count = () => ++n; n += 10;');
    const asked: string[] = [];
    const { load } = createChunkLoader({ source: dirSource(dir, asked), cacheRoot: undefined, argv: [] });
    expect(load('entry.js')).toEqual({ same: true, n: 11, sep: '/', file: join(dir, 'entry.js') });
    expect(asked).toEqual(['node:path']);
  });

  it('finds a chunk in the file the build put it in, compiling that file once', () => {
    const dir = tempDir();
    writeChunk(join(dir, 'entry.js'), "const { b } = require('./b.js'); module.exports = b + require('./c.js').c;");
    // b.js and c.js share main.js; b.js requires c.js, which is already known.
    writeFileSync(join(dir, 'main.js'), chunkFileText({ 'b.js': "exports.b = require('./c.js').c * 10;", 'c.js': 'exports.c = 4;' }));
    const trace = join(tempDir(), 'trace.log');
    const { load } = createChunkLoader({ source: dirSource(dir), cacheRoot: undefined, fileOf: { 'b.js': 'main.js', 'c.js': 'main.js' }, argv: [], trace });
    expect(load('entry.js')).toBe(44);
    expect(readFileSync(trace, 'utf8')).toBe('entry.js\nmain.js\n');
  });

  it('says which chunk is missing', () => {
    const dir = tempDir();
    writeChunk(join(dir, 'entry.js'), "require('./gone.js');");
    const { load } = createChunkLoader({ source: dirSource(dir), cacheRoot: undefined, argv: [] });
    expect(() => load('entry.js')).toThrow('socialpub: no module gone.js (the build is incomplete: run scripts/pnpm build)');
  });

  it('writes a code cache per chunk under the command set once, and uses it on the next run', () => {
    const dir = tempDir();
    const caches = tempDir();
    writeChunk(join(dir, 'entry.js'), "module.exports = require('./a.js').twice(21);");
    writeChunk(join(dir, 'a.js'), 'exports.twice = (x) => x * 2;');
    const first = createChunkLoader({ source: dirSource(dir), cacheRoot: caches, argv: ['schedule', 'list', '--json'] });
    expect(first.load('entry.js')).toBe(42);
    expect(readdirSync(caches)).toEqual([]);
    first.saveCaches();
    const set = join(caches, 'schedule.list.json');
    expect(readdirSync(set).sort()).toEqual(['a.js.cache', 'entry.js.cache']);
    const written = readFileSync(join(set, 'a.js.cache'));
    expect(written.length).toBeGreaterThan(0);

    // Accepted by V8: nothing to write again.
    const second = createChunkLoader({ source: dirSource(dir), cacheRoot: caches, argv: ['schedule', 'list', '--json'] });
    expect(second.load('entry.js')).toBe(42);
    writeFileSync(join(set, 'a.js.cache'), 'not rewritten');
    second.saveCaches();
    expect(readFileSync(join(set, 'a.js.cache'), 'utf8')).toBe('not rewritten');
  });

  it('replaces a cache V8 refuses (another Node, damaged) at the end of the run', () => {
    const dir = tempDir();
    const caches = tempDir();
    writeChunk(join(dir, 'entry.js'), 'module.exports = 7;');
    mkdirSync(join(caches, 'status'), { recursive: true });
    writeFileSync(join(caches, 'status', 'entry.js.cache'), 'garbage');
    const loader = createChunkLoader({ source: dirSource(dir), cacheRoot: caches, argv: ['status'] });
    expect(loader.load('entry.js')).toBe(7);
    loader.saveCaches();
    expect(readFileSync(join(caches, 'status', 'entry.js.cache')).toString()).not.toBe('garbage');
  });

  it('keeps at most 100 command sets', () => {
    const dir = tempDir();
    const caches = tempDir();
    writeChunk(join(dir, 'entry.js'), 'module.exports = 1;');
    for (let i = 0; i < 100; i++) mkdirSync(join(caches, `set${i}`));
    const loader = createChunkLoader({ source: dirSource(dir), cacheRoot: caches, argv: ['whoami'] });
    loader.load('entry.js');
    loader.saveCaches();
    expect(readdirSync(caches)).not.toContain('whoami');
    expect(readdirSync(caches)).toHaveLength(100);
  });

  it("removes other builds' caches unused for a week when this build's are first written", () => {
    const dir = tempDir();
    const base = tempDir();
    writeChunk(join(dir, 'entry.js'), 'module.exports = 1;');
    for (const name of ['node-v24-x64-old', 'node-v24-x64-recent', 'sea-v24-x64-old']) mkdirSync(join(base, name, 'status'), { recursive: true });
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000);
    utimesSync(join(base, 'node-v24-x64-old'), eightDaysAgo, eightDaysAgo);
    utimesSync(join(base, 'sea-v24-x64-old'), eightDaysAgo, eightDaysAgo);
    const loader = createChunkLoader({ source: dirSource(dir), cacheRoot: join(base, 'node-v24-x64-new'), earlierRootsPrefix: 'node-v24-x64-', argv: ['status'] });
    loader.load('entry.js');
    loader.saveCaches();
    expect(readdirSync(base).sort()).toEqual(['node-v24-x64-new', 'node-v24-x64-recent', 'sea-v24-x64-old']);
    expect(readdirSync(join(base, 'node-v24-x64-new', 'status'))).toEqual(['entry.js.cache']);
  });

  it('names every chunk it loads in the trace file', () => {
    const dir = tempDir();
    writeChunk(join(dir, 'entry.js'), "require('./a.js');");
    writeChunk(join(dir, 'a.js'), '');
    const trace = join(tempDir(), 'trace.log');
    createChunkLoader({ source: dirSource(dir), cacheRoot: undefined, argv: [], trace }).load('entry.js');
    expect(readFileSync(trace, 'utf8')).toBe('entry.js\na.js\n');
  });
});
