import { MediaError } from '../net/media-error';
import { parseDriveConfirmation } from './drive-confirmation';
import { DEFAULT_SHARE_HOSTS, type ShareHosts } from './share-hosts';

export type SourceService = 'direct' | 'dropbox' | 'google_drive' | 'onedrive' | 's3' | 'gcs';

export interface ResolvedSource {
  service: SourceService;
  /** The http(s) URL that serves the file's bytes (possibly after redirects). */
  url: string;
  /**
   * Turns an HTML page that stands between the link and the file (Google Drive's "can't
   * scan this file for viruses" page) into the next URL; null when the page is the end.
   */
  interstitial?: (html: string, pageUrl: string) => string | null;
}

const BUCKET_NAME = /^[a-z0-9][a-z0-9._-]{1,253}[a-z0-9]$/;
const DRIVE_ID = /^[A-Za-z0-9_-]{10,}$/;

/**
 * Maps what a user pasted to where the bytes are: share pages to their download form,
 * bucket schemes to their public https form. Pure (no I/O); fetching stays in the safe path.
 */
export function resolveSource(input: string, hosts: ShareHosts = DEFAULT_SHARE_HOSTS): ResolvedSource {
  if (/^(s3|gs):/i.test(input.trim())) return bucketScheme(input, hosts);
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new MediaError('invalid_url', `not a URL: ${truncate(input)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new MediaError('unsupported_scheme', `unsupported scheme ${url.protocol.replace(/:$/, '')}: use http(s), s3:// or gs://`);
  }
  if (url.username || url.password) throw new MediaError('invalid_url', 'URLs with a user name or password are not accepted');
  const host = url.hostname.toLowerCase().replace(/\.$/, '');

  if (host === 'dropbox.com' || host === 'www.dropbox.com') return dropbox(url, hosts);
  if (host === 'drive.google.com' || host === 'docs.google.com' || host === 'drive.usercontent.google.com') {
    const drive = googleDrive(url, hosts);
    if (drive) return drive;
  }
  if (host === '1drv.ms' || host === 'onedrive.live.com' || host.endsWith('.sharepoint.com')) return oneDrive(url, host, hosts);
  if (host === 'storage.cloud.google.com') {
    // The console's authenticated object link; public objects are served by storage.googleapis.com.
    const [bucket, ...key] = url.pathname.slice(1).split('/');
    return { service: 'gcs', url: joinKey(hosts.gcs.replace('{bucket}', bucket ?? ''), key.join('/'), true) + url.search };
  }
  if (host === 'storage.googleapis.com' || host.endsWith('.storage.googleapis.com')) return { service: 'gcs', url: url.href };
  if (/(^|\.)s3[.-]([a-z0-9-]+\.)?amazonaws\.com$/.test(host) || /\.s3\.[a-z0-9-]+\.amazonaws\.com$/.test(host)) {
    return { service: 's3', url: url.href }; // virtual-hosted and path-style URLs are already the download form
  }
  return { service: 'direct', url: url.href };
}

function dropbox(url: URL, hosts: ShareHosts): ResolvedSource {
  // /s/<id>/<name>?dl=0 and /scl/fi/<id>/<name>?rlkey=<key>&dl=0: dl=1 makes Dropbox answer
  // with a redirect to the file on dl.dropboxusercontent.com instead of the preview page.
  const out = new URL(url.pathname, hosts.dropbox.replace(/\/$/, '') + '/');
  for (const [k, v] of url.searchParams) if (k !== 'dl' && k !== 'raw' && k !== 'preview') out.searchParams.append(k, v);
  out.searchParams.set('dl', '1');
  return { service: 'dropbox', url: out.href };
}

function googleDrive(url: URL, hosts: ShareHosts): ResolvedSource | null {
  const fromPath = /\/file\/(?:u\/\d+\/)?d\/([^/]+)/.exec(url.pathname)?.[1];
  const fromQuery = /^\/(?:u\/\d+\/)?(?:open|uc|download)$/.test(url.pathname) ? url.searchParams.get('id') : null;
  const id = fromPath ?? fromQuery;
  if (!id) return null; // Docs, Sheets, folders: not files; fetched as they are (and refused as HTML)
  if (!DRIVE_ID.test(id)) throw new MediaError('invalid_url', `not a Google Drive file id: ${truncate(id)}`);
  const out = new URL('/download', hosts.driveDownload);
  out.searchParams.set('id', id);
  out.searchParams.set('export', 'download');
  const resourceKey = url.searchParams.get('resourcekey');
  if (resourceKey) out.searchParams.set('resourcekey', resourceKey);
  return { service: 'google_drive', url: out.href, interstitial: parseDriveConfirmation };
}

function oneDrive(url: URL, host: string, hosts: ShareHosts): ResolvedSource {
  if (host.endsWith('.sharepoint.com')) {
    // OneDrive for Business / SharePoint share links download with download=1.
    const out = new URL(url.href);
    out.searchParams.set('download', '1');
    return { service: 'onedrive', url: out.href };
  }
  if (host === 'onedrive.live.com' && url.pathname === '/download') return { service: 'onedrive', url: url.href };
  if (host === 'onedrive.live.com' && url.pathname === '/embed') {
    const out = new URL(url.href);
    out.pathname = '/download';
    return { service: 'onedrive', url: out.href };
  }
  // Any other personal share link (1drv.ms short links included): the shares API takes
  // the link itself, base64url-encoded, and redirects to the content.
  const encoded = 'u!' + Buffer.from(url.href, 'utf8').toString('base64url');
  return { service: 'onedrive', url: `${hosts.onedriveApi.replace(/\/$/, '')}/v1.0/shares/${encoded}/root/content` };
}

function bucketScheme(input: string, hosts: ShareHosts): ResolvedSource {
  // Parsed by hand, not as a URL: like the aws and gsutil tools, the key is taken
  // literally, so `#`, `?` and `%` are part of it rather than URL syntax.
  const m = /^(s3|gs):\/\/([^/]*)\/?(.*)$/is.exec(input.trim());
  const scheme = (m?.[1] ?? '').toLowerCase();
  const bucket = m?.[2] ?? '';
  const key = m?.[3] ?? '';
  if (!BUCKET_NAME.test(bucket)) throw new MediaError('invalid_url', `not a bucket name: ${truncate(bucket)}`);
  if (!key) throw new MediaError('invalid_url', `${scheme}://${bucket}/ names no object`);
  if (scheme === 'gs') return { service: 'gcs', url: joinKey(hosts.gcs.replace('{bucket}', bucket), key, false) };
  const base = bucket.includes('.') ? hosts.s3PathStyle : hosts.s3;
  return { service: 's3', url: joinKey(base.replace('{bucket}', bucket), key, false) };
}

/** Appends an object key, encoding each segment (a key may hold spaces, `#` or `?`). */
function joinKey(base: string, key: string, alreadyEncoded: boolean): string {
  const segments = key.split('/').map((s) => (alreadyEncoded ? s : encodeURIComponent(s)));
  return `${base.replace(/\/$/, '')}/${segments.join('/')}`;
}

function truncate(s: string): string {
  return s.length > 100 ? `${s.slice(0, 100)}…` : s;
}
