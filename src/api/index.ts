export * from "./client.ts";
export {
  ApiError,
  type ApiErrorCode,
  type ApiErrorInit,
  type ApiErrorType,
  type ClientErrorCode,
  errorFromResponse,
  isApiError,
  parseRetryAfter,
} from "./errors.ts";
export { encodeForm, type FormValue } from "./form.ts";
export * from "./schema.ts";
