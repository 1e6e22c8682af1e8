/** Why a token is not trusted, in words a client can act on; auth/ turns it into a 401. */
export class JwtError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'JwtError';
  }
}
