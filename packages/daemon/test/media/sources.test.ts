import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaError } from '../../src/net/media-error';
import { resolveSource } from '../../src/media/resolve-source';
import type { ShareHosts } from '../../src/media/share-hosts';
import { harness, prepareAndWait, redirect, SAMPLES, send, sha256, startServer, type Harness, type Handler, type TestServer } from './helpers';

describe('resolveSource (no network)', () => {
  const cases: [string, string, string][] = [
    ['dropbox /s/ with dl=0', 'https://www.dropbox.com/s/abc123xyz/beach.jpg?dl=0', 'https://www.dropbox.com/s/abc123xyz/beach.jpg?dl=1'],
    ['dropbox without www', 'https://dropbox.com/s/abc123xyz/beach.jpg', 'https://www.dropbox.com/s/abc123xyz/beach.jpg?dl=1'],
    [
      'dropbox /scl/fi/ keeping rlkey and st',
      'https://www.dropbox.com/scl/fi/k2j3h4l5/clip.mp4?rlkey=r7t8y9&st=0xqz&dl=0',
      'https://www.dropbox.com/scl/fi/k2j3h4l5/clip.mp4?rlkey=r7t8y9&st=0xqz&dl=1',
    ],
    ['dropbox raw=1', 'https://www.dropbox.com/s/abc123xyz/a.png?raw=1', 'https://www.dropbox.com/s/abc123xyz/a.png?dl=1'],
    ['drive /file/d/ID/view', 'https://drive.google.com/file/d/1AbCdEfGhIjKlMnOp/view?usp=sharing', 'https://drive.usercontent.google.com/download?id=1AbCdEfGhIjKlMnOp&export=download'],
    ['drive /file/u/0/d/ID/edit', 'https://drive.google.com/file/u/0/d/1AbCdEfGhIjKlMnOp/edit', 'https://drive.usercontent.google.com/download?id=1AbCdEfGhIjKlMnOp&export=download'],
    ['drive open?id=', 'https://drive.google.com/open?id=1AbCdEfGhIjKlMnOp', 'https://drive.usercontent.google.com/download?id=1AbCdEfGhIjKlMnOp&export=download'],
    ['drive uc?id=&export=view', 'https://drive.google.com/uc?id=1AbCdEfGhIjKlMnOp&export=view', 'https://drive.usercontent.google.com/download?id=1AbCdEfGhIjKlMnOp&export=download'],
    ['docs.google.com uc?id=', 'https://docs.google.com/uc?export=download&id=1AbCdEfGhIjKlMnOp', 'https://drive.usercontent.google.com/download?id=1AbCdEfGhIjKlMnOp&export=download'],
    [
      'drive with a resource key',
      'https://drive.google.com/file/d/1AbCdEfGhIjKlMnOp/view?resourcekey=0-XyZ',
      'https://drive.usercontent.google.com/download?id=1AbCdEfGhIjKlMnOp&export=download&resourcekey=0-XyZ',
    ],
    [
      '1drv.ms short link',
      'https://1drv.ms/i/s!AkXyZ123abcdEF',
      `https://api.onedrive.com/v1.0/shares/u!${Buffer.from('https://1drv.ms/i/s!AkXyZ123abcdEF').toString('base64url')}/root/content`,
    ],
    ['onedrive embed', 'https://onedrive.live.com/embed?resid=ABC%21123&authkey=%21XyZ', 'https://onedrive.live.com/download?resid=ABC%21123&authkey=%21XyZ'],
    [
      'sharepoint share link',
      'https://contoso-my.sharepoint.com/:i:/g/personal/ann_contoso_com/EaBcDeF?e=4xYz',
      'https://contoso-my.sharepoint.com/:i:/g/personal/ann_contoso_com/EaBcDeF?e=4xYz&download=1',
    ],
    ['s3:// virtual-hosted', 's3://my-bucket/photos/cat one.jpg', 'https://my-bucket.s3.amazonaws.com/photos/cat%20one.jpg'],
    ['s3:// with a dotted bucket goes path-style', 's3://media.example.com/a/b.mp4', 'https://s3.amazonaws.com/media.example.com/a/b.mp4'],
    ['gs://', 'gs://media-bkt/v/clip #1.mov', 'https://storage.googleapis.com/media-bkt/v/clip%20%231.mov'],
    ['GCS console link', 'https://storage.cloud.google.com/media-bkt/v/clip.mov', 'https://storage.googleapis.com/media-bkt/v/clip.mov'],
    ['S3 virtual-hosted URL as it is', 'https://photos.s3.eu-west-1.amazonaws.com/2026/cat.jpg', 'https://photos.s3.eu-west-1.amazonaws.com/2026/cat.jpg'],
    ['S3 path-style URL as it is', 'https://s3.eu-west-1.amazonaws.com/photos/2026/cat.jpg', 'https://s3.eu-west-1.amazonaws.com/photos/2026/cat.jpg'],
    ['direct URL as it is', 'https://cdn.example.com/a.jpg?sig=1', 'https://cdn.example.com/a.jpg?sig=1'],
  ];

  it.each(cases)('turns a %s into its download form', (_label, input, expected) => {
    expect(resolveSource(input).url).toBe(expected);
  });

  it.each([
    ['ftp://example.com/a.jpg', 'unsupported_scheme'],
    ['file:///etc/passwd', 'unsupported_scheme'],
    ['javascript:alert(1)', 'unsupported_scheme'],
    ['not a url', 'invalid_url'],
    ['https://user:pw@example.com/a.jpg', 'invalid_url'],
    ['s3://bucket-only/', 'invalid_url'],
    ['s3://UP/a', 'invalid_url'],
    ['https://drive.google.com/open?id=<script>', 'invalid_url'],
  ])('refuses %s with %s', (input, code) => {
    expect(() => resolveSource(input)).toThrow(MediaError);
    try {
      resolveSource(input);
    } catch (err) {
      expect((err as MediaError).code).toBe(code);
    }
  });
});

describe('each source kind against its service (local servers with the real redirect shapes)', () => {
  let server: TestServer;
  let h: Harness;
  const onedriveLink = 'https://1drv.ms/i/s!AkXyZ123abcdEF';
  const bigVideo = Buffer.concat([SAMPLES.mp4, Buffer.alloc(300_000, 0x11)]);

  beforeAll(async () => {
    // One server plays every host: the guard resolves every name to 127.0.0.1.
    const routes: Record<string, Handler> = {};
    server = await startServer((req, res, url) => {
      const host = (req.headers.host ?? '').replace(/:\d+$/, '');
      const handler = routes[`${host}${url.pathname}`];
      if (handler) handler(req, res, url);
      else res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not Found</body></html>');
    });
    const at = (host: string) => `http://${host}:${server.port}`;
    const content = at('uc4f2a9e.dl.dropboxusercontent.com');

    // Dropbox: dl=0 is the preview page; dl=1 redirects to the content host.
    const dropboxPage: (file: string, blob: string, check?: (u: URL) => boolean) => Handler = (file, blob, check) => (req, res, url) => {
      if (url.searchParams.get('dl') === '1' && (!check || check(url))) redirect(`${content}/cd/0/get/${blob}/file?dl=1#`)(req, res, url);
      else send(`<!DOCTYPE html><html><head><title>${file} - Dropbox</title></head><body>preview</body></html>`, 'text/html; charset=utf-8')(req, res, url);
    };
    routes['www.dropbox.com/s/abc123xyz/beach.jpg'] = dropboxPage('beach.jpg', 'CjpgBlob');
    routes['www.dropbox.com/scl/fi/k2j3h4l5/clip.mp4'] = dropboxPage('clip.mp4', 'Cmp4Blob', (u) => u.searchParams.get('rlkey') === 'r7t8y9');
    routes['uc4f2a9e.dl.dropboxusercontent.com/cd/0/get/CjpgBlob/file'] = send(SAMPLES.jpeg, 'image/jpeg', { 'content-disposition': `attachment; filename="beach.jpg"; filename*=UTF-8''beach.jpg` });
    routes['uc4f2a9e.dl.dropboxusercontent.com/cd/0/get/Cmp4Blob/file'] = send(SAMPLES.mp4, 'video/mp4', { 'content-disposition': 'attachment; filename="clip.mp4"' });

    // Google Drive: small files come straight away; big ones behind the virus-scan page; private ones bounce to sign-in.
    routes['drive.usercontent.google.com/download'] = (req, res, url) => {
      const id = url.searchParams.get('id');
      if (id === '1SmallPngFile_abc') return send(SAMPLES.png, 'image/png', { 'content-disposition': 'attachment; filename="diagram.png"' })(req, res, url);
      if (id === '1BigVideoFile_xyz' && url.searchParams.get('confirm') === 't' && url.searchParams.get('uuid') === 'u-42') {
        return send(bigVideo, 'application/octet-stream', { 'content-disposition': 'attachment; filename="talk.mp4"' })(req, res, url);
      }
      if (id === '1BigVideoFile_xyz') {
        const html = `<!DOCTYPE html><html><head><title>Google Drive - Virus scan warning</title></head><body>
          <div class="uc-warning-subcaption">Google Drive can't scan this file for viruses.</div>
          <form id="download-form" action="${at('drive.usercontent.google.com')}/download" method="get">
          <input type="submit" id="uc-download-link" value="Download anyway"/>
          <input type="hidden" name="id" value="1BigVideoFile_xyz"><input type="hidden" name="export" value="download">
          <input type="hidden" name="confirm" value="t"><input type="hidden" name="uuid" value="u-42"></form></body></html>`;
        return send(html, 'text/html; charset=utf-8')(req, res, url);
      }
      if (id === '1OldStyleFile_klm') {
        // The older page: a confirm link whose token must come back with its cookie.
        res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': 'download_warning_13058_1OldStyleFile_klm=Xy12; Path=/; HttpOnly' });
        return res.end('<html><body><a id="uc-download-link" href="/uc?export=download&amp;confirm=Xy12&amp;id=1OldStyleFile_klm">Download anyway</a></body></html>');
      }
      if (id === '1PrivateFile_qrs') return redirect(`${at('accounts.google.com')}/ServiceLogin?service=wise&continue=x`)(req, res, url);
      res.writeHead(404).end();
    };
    routes['drive.usercontent.google.com/uc'] = (req, res, url) => {
      const cookieOk = (req.headers.cookie ?? '').includes('download_warning_13058_1OldStyleFile_klm=Xy12');
      if (cookieOk && url.searchParams.get('confirm') === 'Xy12') return send(SAMPLES.avi, 'video/x-msvideo')(req, res, url);
      send('<html><body>confirm again</body></html>', 'text/html')(req, res, url);
    };
    routes['accounts.google.com/ServiceLogin'] = send('<!doctype html><html><head><title>Sign in - Google Accounts</title></head><body><form action="/signin"></form></body></html>', 'text/html');

    // OneDrive: the shares API redirects to the file on a livefilestore host.
    routes[`api.onedrive.com/v1.0/shares/u!${Buffer.from(onedriveLink).toString('base64url')}/root/content`] = redirect(
      `${at('public.bn1304.livefilestore.com')}/y4mAbCdEf/party.gif?download&psid=1`,
    );
    routes['public.bn1304.livefilestore.com/y4mAbCdEf/party.gif'] = send(SAMPLES.gif, 'image/gif');

    // Buckets.
    routes['my-bucket.s3.amazonaws.com/photos/cat%20one.jpg'] = send(SAMPLES.jpeg, 'image/jpeg');
    routes['s3.amazonaws.com/media.example.com/a/b.avi'] = send(SAMPLES.avi, 'video/avi');
    routes['storage.googleapis.com/media-bkt/v/clip.mov'] = send(SAMPLES.mov, 'video/quicktime');
    routes['photos.s3.eu-west-1.amazonaws.com/2026/cat.png'] = send(SAMPLES.png, 'image/png');
    routes['s3.eu-west-1.amazonaws.com/photos/2026/dog.gif'] = send(SAMPLES.gif, 'image/gif');
    routes['private-bkt.s3.amazonaws.com/secret.jpg'] = (_req, res) =>
      res.writeHead(403, { 'content-type': 'application/xml' }).end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>');

    // Redirect chains.
    for (let i = 0; i < 7; i++) routes[`cdn.example.com/hop${i}`] = redirect(`/hop${i + 1}`, i % 2 ? 301 : 307);
    routes['cdn.example.com/hop7'] = send(SAMPLES.jpeg, 'image/jpeg');
    routes['cdn.example.com/login.jpg'] = send(SAMPLES.html, 'text/html; charset=utf-8');
    routes['cdn.example.com/lying.jpg'] = send(SAMPLES.html, 'image/jpeg');
    routes['cdn.example.com/to-ftp'] = redirect('ftp://cdn.example.com/a.jpg');

    const hosts: ShareHosts = {
      dropbox: at('www.dropbox.com'),
      driveDownload: at('drive.usercontent.google.com'),
      onedriveApi: at('api.onedrive.com'),
      s3: `${at('{bucket}.s3.amazonaws.com')}`,
      s3PathStyle: `${at('s3.amazonaws.com')}/{bucket}`,
      gcs: `${at('storage.googleapis.com')}/{bucket}`,
    };
    h = harness({ hosts });
  });
  afterAll(async () => {
    await h.cleanup();
    await server.close();
  });

  async function prepareOne(url: string) {
    const { status } = await prepareAndWait(h.media, h.userId, [url]);
    return status;
  }

  it.each([
    ['a Dropbox /s/ link with dl=0', 'https://www.dropbox.com/s/abc123xyz/beach.jpg?dl=0', SAMPLES.jpeg, 'image/jpeg', 'beach.jpg'],
    ['a Dropbox /scl/fi/ link with its rlkey', 'https://www.dropbox.com/scl/fi/k2j3h4l5/clip.mp4?rlkey=r7t8y9&dl=0', SAMPLES.mp4, 'video/mp4', 'clip.mp4'],
    ['a Google Drive /file/d/ID/view link', 'https://drive.google.com/file/d/1SmallPngFile_abc/view?usp=sharing', SAMPLES.png, 'image/png', 'diagram.png'],
    ['a Google Drive open?id= link', 'https://drive.google.com/open?id=1SmallPngFile_abc', SAMPLES.png, 'image/png', 'diagram.png'],
    ['a large Google Drive file behind the confirmation page', 'https://drive.google.com/uc?id=1BigVideoFile_xyz&export=download', bigVideo, 'video/mp4', 'talk.mp4'],
    ['a large Google Drive file behind the older confirm link and cookie', 'https://drive.google.com/open?id=1OldStyleFile_klm', SAMPLES.avi, 'video/x-msvideo', 'uc.avi'],
    ['a 1drv.ms link', onedriveLink, SAMPLES.gif, 'image/gif', 'party.gif'],
    ['an s3:// URL', 's3://my-bucket/photos/cat one.jpg', SAMPLES.jpeg, 'image/jpeg', 'cat-one.jpg'],
    ['an s3:// URL with a dotted bucket', 's3://media.example.com/a/b.avi', SAMPLES.avi, 'video/x-msvideo', 'b.avi'],
    ['a gs:// URL', 'gs://media-bkt/v/clip.mov', SAMPLES.mov, 'video/quicktime', 'clip.mov'],
  ])('prepares %s', async (_label, input, bytes, mime, name) => {
    const status = await prepareOne(input);
    expect(status.status).toBe('completed');
    expect(status.failed).toEqual([]);
    const [file] = status.files;
    expect(file).toMatchObject({ original_url: input, mime_type: mime, size: bytes.length, sha256: sha256(bytes) });
    expect(file?.prepared_url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:8787/files/[0-9a-z]{32}/${name.replace('.', '\\.')}$`));
    const row = h.media.fileForUrl(file?.prepared_url ?? '');
    expect(readFileSync(h.media.pathOf(row as { token: string })).equals(bytes)).toBe(true);
  });

  it('prepares virtual-hosted and path-style bucket URLs as they are', async () => {
    const { status } = await prepareAndWait(h.media, h.userId, [
      `http://photos.s3.eu-west-1.amazonaws.com:${server.port}/2026/cat.png`,
      `http://s3.eu-west-1.amazonaws.com:${server.port}/photos/2026/dog.gif`,
    ]);
    expect(status.status).toBe('completed');
    expect(status.files.map((f) => f.mime_type)).toEqual(['image/png', 'image/gif']);
  });

  it('refuses an HTML page at a .jpg URL, whatever its Content-Type says', async () => {
    const status = await prepareAndWait(h.media, h.userId, [
      `http://cdn.example.com:${server.port}/login.jpg`,
      `http://cdn.example.com:${server.port}/lying.jpg`,
    ]);
    expect(status.status.failed.map((f) => f.error.code)).toEqual(['html_page', 'html_page']);
  });

  it('refuses a private Google Drive file (a sign-in page) as an HTML page', async () => {
    const status = await prepareOne('https://drive.google.com/file/d/1PrivateFile_qrs/view');
    expect(status.status).toBe('failed');
    expect(status.failed[0]?.error.code).toBe('html_page');
  });

  it('reports a bucket that denies access as http_error with the status', async () => {
    const status = await prepareOne('s3://private-bkt/secret.jpg');
    expect(status.failed[0]?.error).toEqual({ code: 'http_error', message: 'the source answered 403 Forbidden' });
  });

  it('follows up to 5 redirects and refuses the 6th', async () => {
    const ok = await prepareOne(`http://cdn.example.com:${server.port}/hop2`);
    expect(ok.status).toBe('completed');
    const tooMany = await prepareOne(`http://cdn.example.com:${server.port}/hop1`);
    expect(tooMany.failed[0]?.error.code).toBe('too_many_redirects');
  });

  it('refuses a redirect to another scheme', async () => {
    const status = await prepareOne(`http://cdn.example.com:${server.port}/to-ftp`);
    expect(status.failed[0]?.error.code).toBe('unsupported_scheme');
  });
});
