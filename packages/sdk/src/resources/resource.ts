import type { SdkClock } from '../clock';
import type { Transport } from '../transport';

/** What every resource class gets from the client. */
export abstract class Resource {
  protected readonly transport: Transport;
  protected readonly clock: SdkClock;

  constructor(transport: Transport, clock: SdkClock) {
    this.transport = transport;
    this.clock = clock;
  }
}
