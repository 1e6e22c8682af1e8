export { STORE_UNAVAILABLE_CODE } from '../store/port.js';
