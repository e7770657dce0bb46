import { Agent } from 'node:https';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { startSandboxOrigins } from '../../src/platforms/sandbox-origins';
import { sandboxCertificate } from '../../src/platforms/sandbox-tls';

/**
 * The simulators as a platform's own client meets them: every host at an origin of its own
 * (plain HTTP and https with the data dir's self-signed certificate), exactly as the
 * daemon serves them (sandbox-origins.ts), and an https agent trusting that certificate as
 * a user would (its `ca`, or NODE_EXTRA_CA_CERTS).
 */
export interface ContractOrigins {
  http: Record<string, string>;
  https: Record<string, string>;
  /** The certificate file a client trusts. */
  certFile: string;
  /** An https agent trusting exactly the sandbox certificate. */
  agent: Agent;
  close(): Promise<void>;
}

/** `previous`: a closed run's origins, whose ports are taken again (as the daemon does at its next start). */
export async function serveContractOrigins(sims: Array<{ hosts: readonly string[]; app: Hono }>, previous?: Pick<ContractOrigins, 'http' | 'https'>): Promise<ContractOrigins> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sp-contract-'));
  const cert = await sandboxCertificate(dataDir);
  const sandbox = new Hono();
  for (const sim of sims) sandbox.route('/', sim.app);
  const origins = await startSandboxOrigins(sandbox, sims.flatMap((s) => s.hosts), { tls: cert, previous: previous?.http, previousHttps: previous?.https });
  const agent = new Agent({ ca: cert.cert, keepAlive: false });
  return {
    http: origins.endpoints,
    https: origins.httpsEndpoints,
    certFile: cert.certFile,
    agent,
    close: async () => {
      agent.destroy();
      await origins.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
