/** Kept equal to package.json's version by a test; a plain constant so --version loads nothing. */
export const VERSION = '0.1.0';
