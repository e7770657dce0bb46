import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Platform, PlatformEntry } from './types';

export interface AppContext {
  email: string;
  /** The person's zone: the settings' timezone, else the browser's. */
  zone: string;
  /** The zone saved in settings (null: none, the API then uses UTC). */
  savedZone: string | null;
  approvalWorkflow: boolean;
  platforms: PlatformEntry[];
  connected: Platform[];
  navigate(path: string): void;
  reloadContext(): Promise<void>;
}

export const Ctx = createContext<AppContext | null>(null);

export function useApp(): AppContext {
  const ctx = useContext(Ctx);
  if (!ctx) throw new Error('useApp outside the app');
  return ctx;
}
