// A self-signed certificate for a test's TLS server or proxy, made by openssl (.ci/run
// installs it): key.pem and cert.pem in `dir`, for `name` (a DNS name or an IP address).
import { execFileSync } from "node:child_process";
import { isIP } from "node:net";
import { join } from "node:path";

export function selfSignedCert(dir: string, name: string): { key: string; cert: string } {
  const key = join(dir, "key.pem");
  const cert = join(dir, "cert.pem");
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"],
      ...["-nodes", "-days", "1", "-subj", `/CN=${name}`],
      ...["-addext", `subjectAltName=${isIP(name) ? "IP" : "DNS"}:${name}`],
      ...["-keyout", key, "-out", cert],
    ],
    { stdio: "ignore" },
  );
  return { key, cert };
}
