import { StoreUnavailableError } from '../store/port.js';
import { HttpError } from './http-io.js';

/** Runs an admin endpoint's store work; a store that cannot be reached answers 503 STORE_UNAVAILABLE, not 500. */
export async function answeringStoreOutage<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof StoreUnavailableError) throw new HttpError(503, 'STORE_UNAVAILABLE', error.message);
    throw error;
  }
}
