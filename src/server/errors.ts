// One typed error for every failure the contract names; app.ts turns it into the flat body.
import type { ErrorBody, ErrorCode } from "../api/schema.ts";

export class HttpError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly param: string | undefined;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: ErrorCode,
    message: string,
    options: { param?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "HttpError";
    this.status = status;
    this.code = code;
    this.param = options.param;
    this.headers = options.headers ?? {};
  }

  body(): ErrorBody {
    const body: ErrorBody = {
      type: this.status >= 500 ? "api_error" : "invalid_request",
      code: this.code,
      message: this.message,
    };
    if (this.param !== undefined) body.param = this.param;
    return body;
  }
}

export function invalid(param: string | undefined, message: string): HttpError {
  return new HttpError(400, "parameter_invalid", message, param === undefined ? {} : { param });
}

export function missing(param: string, message?: string): HttpError {
  return new HttpError(
    400,
    "parameter_missing",
    message ?? `The parameter "${param}" is required.`,
    { param },
  );
}

/** Also used for things the user may not see: their existence is never revealed. */
export function notFound(what: string, id: string, param?: string): HttpError {
  return new HttpError(
    404,
    "not_found",
    `No ${what} with id "${id}" exists, or you are not a member of its conversation.`,
    param === undefined ? {} : { param },
  );
}

export function forbidden(message: string): HttpError {
  return new HttpError(403, "forbidden", message);
}

export const internalError = (): HttpError =>
  new HttpError(
    500,
    "internal",
    "Something went wrong on the server. Try again; if it keeps failing, check the server log.",
  );
