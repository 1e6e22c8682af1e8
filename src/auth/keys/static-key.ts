import { createPublicKey, createSecretKey } from 'node:crypto';
import type { StaticKeyAuthorization } from '../../sdl/model.js';
import type { VerificationKey } from '../jwt/verify.js';

const parsed = new WeakMap<StaticKeyAuthorization, VerificationKey>();

/** The schema's `VerificationKey` as a key object, parsed once per configuration (sdl/ has checked its form). */
export function staticVerificationKey(config: StaticKeyAuthorization): VerificationKey {
  let key = parsed.get(config);
  if (!key) {
    const keyObject = config.algo === 'HS256' ? createSecretKey(Buffer.from(config.verificationKey, 'utf8')) : createPublicKey(config.verificationKey);
    key = { key: keyObject, algorithm: config.algo };
    parsed.set(config, key);
  }
  return key;
}
