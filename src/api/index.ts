export { type Api, type ApiOptions, createApi } from "./client.ts";
export {
  type ConversationsApi,
  type MessagesApi,
  newIdempotencyKey,
  type PostOptions,
} from "./endpoints.ts";
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
export { parseAnswer } from "./http.ts";
export {
  isRateLimited,
  isTransient,
  type RetryPolicy,
  retryDelay,
  withRetries,
} from "./retry.ts";
export * from "./schema.ts";
