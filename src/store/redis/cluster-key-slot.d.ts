/** The hash slot of a key (CRC16 of its hash tag or of the whole key, mod 16384), as Redis Cluster computes it. */
declare module 'cluster-key-slot' {
  function calculateSlot(key: string | Buffer): number;
  export = calculateSlot;
}
