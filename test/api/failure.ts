// The error a call to the API client ends with, for tests that expect it to fail.
import { type ApiError, isApiError } from "../../src/api/errors.ts";

/** The ApiError `promise` rejects with; throws if it resolves or rejects otherwise. */
export async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (isApiError(error)) return error;
    throw new Error(`expected an ApiError, got ${String(error)}`);
  }
  throw new Error("expected the call to fail");
}
