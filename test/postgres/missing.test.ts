// Run in place of the PostgreSQL suites when the machine has no PostgreSQL: say so.
import { it } from "vitest";

it.skip("PostgreSQL is not installed here: the server and API suites ran on SQLite only (apt-get install postgresql)", () => {});
