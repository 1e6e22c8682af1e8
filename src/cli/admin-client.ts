/**
 * The CLI's only way to the service: the admin HTTP API. The base URL comes from `--url`, else `AUTOGRAPH_URL`,
 * else `http://127.0.0.1:8080`; the bearer token from `ADMIN_TOKEN` (absent = loopback-only admin access).
 */
export interface AdminClientOptions {
  baseUrl: string;
  adminToken: string | undefined;
}

export class AdminHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'AdminHttpError';
  }
}

/** Raised when the service cannot be reached at all (refused connection, DNS, timeout). */
export class AdminUnreachableError extends Error {
  constructor(baseUrl: string, cause: unknown) {
    super(`cannot reach the service at ${baseUrl}: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'AdminUnreachableError';
  }
}

export class AdminClient {
  constructor(private readonly options: AdminClientOptions) {}

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  /** Sends one request to `path` (e.g. `/admin/schema?dryRun=true`) and answers the raw response. */
  async request(method: string, path: string, body?: RequestInit["body"], headers: Record<string, string> = {}): Promise<Response> {
    const allHeaders: Record<string, string> = { ...headers };
    if (this.options.adminToken !== undefined) {
      allHeaders.authorization = `Bearer ${this.options.adminToken}`;
    }
    const init: RequestInit & { duplex?: 'half' } = { method, headers: allHeaders, body };
    if (body !== undefined && typeof body === 'object' && body !== null && Symbol.asyncIterator in body) {
      init.duplex = 'half';
    }
    let response: Response;
    try {
      response = await fetch(new URL(path, this.options.baseUrl), init);
    } catch (error) {
      throw new AdminUnreachableError(this.options.baseUrl, error);
    }
    return response;
  }

  /** Like `request`, but throws AdminHttpError for a non-2xx answer and parses the JSON body. */
  async json<T>(method: string, path: string, body?: RequestInit["body"], headers: Record<string, string> = {}): Promise<T> {
    const response = await this.request(method, path, body, headers);
    const text = await response.text();
    if (!response.ok) {
      throw errorFromAnswer(response.status, text);
    }
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }
}

export function errorFromAnswer(status: number, text: string): AdminHttpError {
  let code: string | undefined;
  let message = text.trim() || `HTTP ${status}`;
  try {
    const parsed = JSON.parse(text) as { errors?: { message?: string; extensions?: { code?: string } }[] };
    const first = parsed.errors?.[0];
    if (first?.message !== undefined) {
      message = first.message;
      code = first.extensions?.code;
    }
  } catch {
    // not JSON: keep the text as the message
  }
  return new AdminHttpError(status, code, message);
}
