/**
 * The upstream services that share links are rewritten to. Injectable, so tests point
 * them at local servers; the defaults are the services' real endpoints.
 */
export interface ShareHosts {
  /** Dropbox web host that answers `?dl=1` with a redirect to the content host. Default https://www.dropbox.com */
  dropbox: string;
  /** Google Drive's download host. Default https://drive.usercontent.google.com */
  driveDownload: string;
  /** OneDrive's shares API, which turns any share link into its content. Default https://api.onedrive.com */
  onedriveApi: string;
  /** S3 base for `s3://bucket/key`; `{bucket}` is replaced. Default https://{bucket}.s3.amazonaws.com */
  s3: string;
  /** S3 path-style base, used for bucket names with dots (their TLS name would not match). Default https://s3.amazonaws.com/{bucket} */
  s3PathStyle: string;
  /** Google Cloud Storage base for `gs://bucket/key` and console links. Default https://storage.googleapis.com/{bucket} */
  gcs: string;
}

export const DEFAULT_SHARE_HOSTS: ShareHosts = Object.freeze({
  dropbox: 'https://www.dropbox.com',
  driveDownload: 'https://drive.usercontent.google.com',
  onedriveApi: 'https://api.onedrive.com',
  s3: 'https://{bucket}.s3.amazonaws.com',
  s3PathStyle: 'https://s3.amazonaws.com/{bucket}',
  gcs: 'https://storage.googleapis.com/{bucket}',
});
