// Who the new-conversation prompt offers, and what typed text there means (contacts.ts).
import { describe, expect, it } from "vitest";
import type { Contact } from "../../src/api/schema.ts";
import { createContactBook, suggestPeople, typedTarget } from "../../src/ui/model/contact-book.ts";

const person = (username: string, id = `ct_${username}`) => ({ id, username });
const contact = (username: string, id = `ct_${username}`): Contact => ({
  ...person(username, id),
  phone_number: "+1 555 0100",
  avatar_url: null,
  last_active_at: null,
  created_at: null,
});

describe("suggestPeople", () => {
  it("merges the server's people with those seen, each once, you left out, best match first", () => {
    const server = [person("bob"), person("bobby"), person("alice")];
    const seen = [contact("rob"), contact("bob")];
    expect(suggestPeople("", server, seen, "alice").map((p) => p.username)).toEqual([
      "bob",
      "bobby",
      "rob",
    ]);
    expect(suggestPeople("ob", server, seen, "alice").map((p) => p.username)).toEqual([
      "bob",
      "bobby",
      "rob",
    ]);
    expect(suggestPeople("bo", server, seen, "alice").map((p) => p.username)).toEqual([
      "bob",
      "bobby",
    ]);
  });

  it("shows at most five", () => {
    const many = Array.from({ length: 9 }, (_, i) => person(`p${i}`));
    expect(suggestPeople("p", many, [], undefined)).toHaveLength(5);
  });
});

describe("typedTarget", () => {
  const people = [person("bob"), person("erin", "u_42")];

  it("takes a user name (case aside) as that person, a group id as the group", () => {
    expect(typedTarget("bob", people, true)).toEqual({ id: "ct_bob" });
    expect(typedTarget(" Erin ", people, true)).toEqual({ id: "u_42" });
    expect(typedTarget("grp_team", people, true)).toEqual({ id: "grp_team" });
  });

  it("takes a contact id as it is, and a name nobody has as unknown", () => {
    expect(typedTarget("ct_dave", people, true)).toEqual({ id: "ct_dave" });
    expect(typedTarget("u_42", people, true)).toEqual({ id: "u_42" });
    expect(typedTarget("dave", people, true)).toEqual({ unknown: "dave" });
  });

  it("sends anything else as a contact id where the server does not list people", () => {
    expect(typedTarget("dave", people, false)).toEqual({ id: "dave" });
    expect(typedTarget("bob", people, false)).toEqual({ id: "ct_bob" });
  });

  it("counts a person listed twice (by the server and as seen) once", () => {
    expect(typedTarget("bob", [...people, person("bob")], true)).toEqual({ id: "ct_bob" });
  });
});

describe("the contact book", () => {
  it("learns the server's names for people not seen yet, and keeps what messages said", () => {
    const book = createContactBook();
    book.learn([{ contact: contact("bob") } as never]);
    book.know([person("bob"), person("carol")]);
    expect(book.get().get("ct_bob")?.phone_number).toBe("+1 555 0100");
    expect(book.get().get("ct_carol")?.username).toBe("carol");
  });
});
