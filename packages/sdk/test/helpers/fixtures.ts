import type { MediaStatus, Post, PublishResult } from '@socialpub/sdk';

export const publishResult = (jobId = 'job_1'): PublishResult => ({
  success: true,
  message: 'Published to twitter',
  job_id: jobId,
  scheduled_for: null,
  platforms: ['twitter'],
  status: 'publishing',
  targets: [{ platform: 'twitter', type: 'tweet', scheduled_for: '2026-12-25T10:00:00.000Z', status: 'publishing' }],
});

export const post = (jobId: string, status: Post['status'] = 'scheduled'): Post => ({
  job_id: jobId,
  status,
  caption: 'hello',
  platforms: ['twitter'],
  platform_captions: {},
  platform_types: {},
  media_urls: [],
  scheduled_for: '2026-12-25T10:00:00.000Z',
  type_schedule: {},
  require_approval: false,
  platform_options: {},
  source: 'api',
  created_at: '2026-12-24T10:00:00.000Z',
  updated_at: '2026-12-24T10:00:00.000Z',
  targets: [
    {
      platform: 'twitter',
      type: 'tweet',
      scheduled_for: '2026-12-25T10:00:00.000Z',
      status: status === 'partially_published' ? 'published' : (status as Post['targets'][number]['status']),
      attempts: 0,
      post_id: null,
      post_url: null,
      published_at: null,
      error: null,
    },
  ],
});

export const processing = (taskId: string, completed: number): MediaStatus => ({
  success: true,
  task_id: taskId,
  status: 'processing',
  progress: { total: 2, completed, failed: 0 },
});

export const completed = (taskId: string): MediaStatus => ({
  success: true,
  task_id: taskId,
  status: 'completed',
  progress: { total: 2, completed: 2, failed: 0 },
  files: [
    {
      original_url: 'https://example.com/a.jpg',
      prepared_url: 'http://127.0.0.1:8787/media/abc/a.jpg',
      type: 'image',
      mime_type: 'image/jpeg',
      size: 1234,
      sha256: 'f'.repeat(64),
      expires_at: '2026-12-26T10:00:00.000Z',
    },
  ],
  failed: [],
});
