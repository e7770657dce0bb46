import type { Browser } from 'playwright-core';

/**
 * A real, playable MP4 (VP9 in an ISO BMFF `isom` file, about 2 KB, half a second of colour
 * changes), recorded by Chromium itself from a canvas with MediaRecorder: the machine has no
 * ffmpeg, and the media module's sniffer takes it as video/mp4. Recorded in a context of its
 * own without the tests' fake clock (MediaRecorder needs real time to pass).
 */
export async function recordMp4(browser: Browser): Promise<Buffer> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const bytes = await page.evaluate(async () => {
      const canvas = document.createElement('canvas');
      canvas.width = 64;
      canvas.height = 48;
      const g = canvas.getContext('2d')!;
      const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: 'video/mp4;codecs=vp9' });
      const chunks: Blob[] = [];
      recorder.ondataavailable = (e) => chunks.push(e.data);
      const stopped = new Promise((resolve) => (recorder.onstop = resolve));
      recorder.start();
      for (let i = 0; i < 12; i++) {
        g.fillStyle = `hsl(${i * 30} 80% 50%)`;
        g.fillRect(0, 0, 64, 48);
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
      recorder.stop();
      await stopped;
      return [...new Uint8Array(await new Blob(chunks).arrayBuffer())];
    });
    return Buffer.from(bytes);
  } finally {
    await context.close();
  }
}
