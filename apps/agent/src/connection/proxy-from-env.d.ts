// proxy-from-env ships no types; its one function, as its README documents it.
declare module 'proxy-from-env' {
  /** The proxy URL HTTP(S)_PROXY/ALL_PROXY give for `url` unless NO_PROXY exempts it; '' for none. */
  export function getProxyForUrl(url: string | URL): string;
}
