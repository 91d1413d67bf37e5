/** proxy-addr (Express's own client-address resolver) ships no types: the one call the gateway makes */
declare module 'proxy-addr' {
  import type { IncomingMessage } from 'node:http';
  /** the client address: the socket's, or the first untrusted hop of X-Forwarded-For */
  function proxyaddr(req: IncomingMessage, trust: (addr: string, i: number) => boolean): string;
  export = proxyaddr;
}
