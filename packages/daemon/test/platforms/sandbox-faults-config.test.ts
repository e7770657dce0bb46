import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseSandboxFaultsList, parseSandboxLatencyList } from '@socialpub/core';
import { resolveConfig } from '../../src/config';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const dataDir = (file?: unknown) => {
  const d = mkdtempSync(join(tmpdir(), 'sp-faults-config-'));
  dirs.push(d);
  if (file !== undefined) writeFileSync(join(d, 'config.json'), JSON.stringify(file));
  return d;
};

describe('SOCIALPUB_SANDBOX_LATENCY_MS and SOCIALPUB_SANDBOX_FAULTS', () => {
  it('reads a range for all, per-platform ranges, and [platform:]kind=share items', () => {
    expect(parseSandboxLatencyList('200-400')).toEqual({ all: { latency_ms: { min: 200, max: 400 } } });
    expect(parseSandboxLatencyList('twitter=500-900, threads=100-200,*=50')).toEqual({
      twitter: { latency_ms: { min: 500, max: 900 } },
      threads: { latency_ms: { min: 100, max: 200 } },
      all: { latency_ms: { min: 50, max: 50 } },
    });
    expect(parseSandboxFaultsList('5xx=0.05,429=2%,twitter:unanswered=1,threads:timeout=0.1,facebook:reset=1,youtube:latency=10-20')).toEqual({
      all: { server_error: 0.05, rate_limited: 0.02 },
      twitter: { unanswered: 1 },
      threads: { timeout: 0.1 },
      facebook: { reset: 1 },
      youtube: { latency_ms: { min: 10, max: 20 } },
    });
  });

  it('refuses what it cannot read, naming the variable and the item', () => {
    expect(() => parseSandboxLatencyList('400-200')).toThrow('SOCIALPUB_SANDBOX_LATENCY_MS: latency 400-200: the lower bound is above the upper one');
    expect(() => parseSandboxLatencyList('fast')).toThrow('latency must be MIN-MAX or MS');
    expect(() => parseSandboxFaultsList('twitter:429=1.5')).toThrow('SOCIALPUB_SANDBOX_FAULTS: a share must be 0 to 1 or 0% to 100%, not "1.5"');
    expect(() => parseSandboxFaultsList('myspace:reset=1')).toThrow('unknown platform "myspace"');
    expect(() => parseSandboxFaultsList('slow=1')).toThrow('unknown fault "slow"');
    expect(() => parseSandboxFaultsList('5xx=0.6,reset=0.6')).toThrow('must not exceed 1');
    expect(() => resolveConfig({ dataDir: dataDir() }, { SOCIALPUB_SANDBOX_FAULTS: 'reset' })).toThrow(/SOCIALPUB_SANDBOX_FAULTS: "reset" must be \[platform:\]kind=share/);
  });

  it('lays the environment over config.json\'s sandbox_faults, field by field', () => {
    const dir = dataDir({ sandbox_faults: { all: { latency_ms: { min: 1, max: 2 }, server_error: 0.5 }, threads: { reset: 0.25 } } });
    expect(resolveConfig({ dataDir: dir }, {}).sandboxFaults).toEqual({ all: { latency_ms: { min: 1, max: 2 }, server_error: 0.5 }, threads: { reset: 0.25 } });
    const config = resolveConfig({ dataDir: dir }, { SOCIALPUB_SANDBOX_LATENCY_MS: '200-400', SOCIALPUB_SANDBOX_FAULTS: '5xx=0,twitter:429=1' });
    expect(config.sandboxFaults).toEqual({ all: { latency_ms: { min: 200, max: 400 }, server_error: 0 }, threads: { reset: 0.25 }, twitter: { rate_limited: 1 } });
    expect(resolveConfig({ dataDir: dataDir() }, {}).sandboxFaults).toEqual({});
  });

  it('refuses a bad sandbox_faults in config.json with the key named', () => {
    expect(() => resolveConfig({ dataDir: dataDir({ sandbox_faults: { twitter: { timeout: 2 } } }) }, {})).toThrow(/"sandbox_faults" must be faults like .*twitter\.timeout: timeout must be a share of calls from 0 to 1/);
  });
});
