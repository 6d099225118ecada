import type { Category } from '@yueman/contract/admin';
import { useEffect, useState } from 'react';
import { adminRoutes, call, shown } from './api.ts';

let cached: Promise<Category[] | undefined> | undefined;

/** The categories (adminRoutes.categories), read once per page load. */
export function useCategories() {
  const [list, setList] = useState<Category[]>([]);
  useEffect(() => {
    cached ??= shown(call(adminRoutes.categories, {}));
    let live = true;
    cached.then((found) => {
      if (!found) cached = undefined;
      else if (live) setList(found);
    });
    return () => {
      live = false;
    };
  }, []);
  return list;
}

export const categoryOptions = (list: Category[]) => list.map((c) => ({ label: c.name, value: c.id }));
