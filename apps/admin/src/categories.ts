import { useEffect, useState } from 'react';
import { get, shown } from './api.ts';
import type { Category } from './types.ts';

let cached: Promise<Category[] | undefined> | undefined;

/** The categories (GET /api/admin/categories), read once per page load. */
export function useCategories() {
  const [list, setList] = useState<Category[]>([]);
  useEffect(() => {
    cached ??= shown(get<Category[]>('/api/admin/categories'));
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
