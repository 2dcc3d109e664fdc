export { detectProxy } from './detectProxy.js';
export type {
  DetectProxyOptions,
  ProxyCandidate,
  ProxyDetection,
  ProxyFound,
  ProxyHop,
  ProxyNotFound,
  ProxyNotFoundReason,
  ProxyPattern,
} from './proxyTypes.js';
export { PROXY_PATTERNS } from './proxyTypes.js';
