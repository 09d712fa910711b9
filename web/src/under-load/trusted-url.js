// @ts-check
// The serving Worker under a host that enforces Trusted Types (`require-trusted-types-for
// 'script'` in its CSP): `new Worker(url)` is a script-URL sink there, and a plain string is
// refused. The element hands that sink one URL only, its own serving Worker's, and does it through
// a Trusted Types policy named `prefill-trace`, which such a host allows by naming it:
// `trusted-types prefill-trace` (README, "A strict host's CSP"). The policy passes exactly the URL
// the element asked it to pass at that moment and refuses anything else, so allowing it lets no
// other script in. Without Trusted Types in the browser, the URL goes as a plain string.

/** The policy's name, the one word a host adds to its `trusted-types` directive. */
export const TRUSTED_TYPES_POLICY = 'prefill-trace';

/**
 * Trusted Types (not in TypeScript's DOM library yet): the policy factory and the one policy
 * method used here.
 * @typedef {{createScriptURL(url: string): unknown}} ScriptUrlPolicy
 * @typedef {{createPolicy(name: string, rules: {createScriptURL(url: string): string}): ScriptUrlPolicy}} TrustedTypesFactory
 */
const trustedTypes = () => /** @type {{trustedTypes?: TrustedTypesFactory}} */ (globalThis).trustedTypes;

/** @type {ScriptUrlPolicy | null | undefined} */
let policy; // undefined: not created yet; null: the host's CSP refused the name
/** @type {string | null} */
let passing = null; // the one URL the policy passes, set only around its call

/** @returns {ScriptUrlPolicy | null} */
function ownPolicy() {
  if (policy !== undefined) return policy;
  try {
    policy = /** @type {TrustedTypesFactory} */ (trustedTypes()).createPolicy(TRUSTED_TYPES_POLICY, {
      /** @param {string} url */
      createScriptURL(url) {
        if (url !== passing) throw new TypeError(`${TRUSTED_TYPES_POLICY}: not the element's serving Worker`);
        return url;
      },
    });
  } catch {
    // The host's `trusted-types` directive does not name the policy (or names it once and it
    // exists already): the Worker is then refused if Trusted Types are enforced.
    policy = null;
  }
  return policy;
}

/**
 * The Worker's script URL as the sink accepts it: a TrustedScriptURL where the browser has them.
 * @param {string} href
 * @returns {unknown}  a TrustedScriptURL, or `href` itself
 */
export function workerScriptUrl(href) {
  if (typeof trustedTypes()?.createPolicy !== 'function') return href;
  const own = ownPolicy();
  if (!own) return href;
  passing = href;
  try {
    return own.createScriptURL(href);
  } finally {
    passing = null;
  }
}

/** Whether the policy could not be created: a refused Worker is then the host's Trusted Types. */
export const policyRefused = () => policy === null;
