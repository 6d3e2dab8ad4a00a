import type { Dataset, RoleSurface } from '../cases/types.js';

/** A role as the datasets declare it: its name, the files that speak for it, and its surface if scoped. */
export interface RoleDefinition {
  name: string;
  datasets: string[];
  surface: RoleSurface | null;
}

/**
 * Every role of a run, in order of first appearance: dataset roles, then roles that only cases
 * tag. A role scoped in one dataset keeps that surface wherever else it is named.
 */
export function roleDefinitions(datasets: Dataset[]): RoleDefinition[] {
  const roles = new Map<string, RoleDefinition>();
  const touch = (name: string) => {
    let role = roles.get(name);
    if (!role) roles.set(name, (role = { name, datasets: [], surface: null }));
    return role;
  };
  for (const dataset of datasets) {
    const role = touch(dataset.role);
    if (!role.datasets.includes(dataset.file)) role.datasets.push(dataset.file);
    if (dataset.surface) role.surface = dataset.surface;
  }
  for (const dataset of datasets) for (const spec of dataset.cases) for (const name of spec.roles ?? []) touch(name);
  return [...roles.values()];
}
