export interface NodeInfo {
  name: string;
  /** host:port the server listens on */
  address: string;
  /** host:port of the TLS listener, when there is one */
  tlsAddress?: string;
}
