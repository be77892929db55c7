// Set-up of the "client-classes" project (test/vitest.config.ts): parley's own Headers,
// Request and Response, as the client's process has them (src/api/fetch-classes.ts), in
// place before the test file loads anything.
import { installFetchClasses } from "../../src/api/fetch-classes.ts";

installFetchClasses();
