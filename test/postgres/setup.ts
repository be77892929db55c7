// Vitest global setup of the "postgres" project: one cluster for the whole run.
import type { TestProject } from "vitest/node";
import { startCluster } from "./cluster.ts";

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const cluster = await startCluster();
  project.provide("postgresUrl", cluster.url);
  return () => cluster.stop();
}
