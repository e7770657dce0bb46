/**
 * The one Temporal implementation (the `temporal-polyfill` package): Node has no built-in
 * Temporal yet, and every zone rule comes from it (its IANA data through Intl), never from
 * hand-written arithmetic or the machine's own TZ.
 */
export { Temporal } from 'temporal-polyfill';
