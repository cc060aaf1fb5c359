/**
 * The few globals the kernel uses that every place it runs has (browsers, the service worker,
 * Node 20 and later) but that the ES library alone does not declare: the kernel's project has
 * neither the DOM's types nor Node's.
 */
declare function structuredClone<T>(value: T): T;

declare const crypto: {
  randomUUID?: () => string;
  getRandomValues<T extends Uint8Array>(array: T): T;
};
