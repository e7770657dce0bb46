/**
 * The simulators find the user a sandbox call belongs to by its connection's account id
 * (platforms/sandbox/fault-stage.ts, `SELECT … FROM connections WHERE mode = 'sandbox' AND
 * account_id = ?`). Without an index that was a scan of every connection on each
 * connection's first call: about 0.3 ms at 1,500 connections, in the simulators' one
 * thread, 400 ms of bench/burst's 3,000 targets (issue 29).
 */
export const migration170 = `
CREATE INDEX connections_sandbox_account ON connections(account_id) WHERE mode = 'sandbox';
`;
