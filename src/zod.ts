// zod as parley uses it: parsing without generating code. By default zod compiles a parser
// with `new Function` for each object schema the first time that schema parses: the first
// page of messages took 4.4 ms that way and 3.4 without, and a start without a kept cache
// pays it for every schema its requests and answers go through (2 to 5 ms in alternating
// runs of npm run bench's start-up). Parsed the plain way, a page of 50 messages takes
// some 0.17 ms against 0.12. zod reads the setting as each object schema is made, so the
// modules that make schemas import zod from here, which sets it first.
import { z } from "zod";

z.config({ jitless: true });

export { z };
