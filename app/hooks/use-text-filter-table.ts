// A TanStack table sorted by column and filtered by one search text over each row's own texts: the corpus table and
// the served-sessions table share it.
import { getCoreRowModel, getFilteredRowModel, getSortedRowModel, useReactTable, type ColumnDef, type FilterFn, type SortingState } from '@tanstack/react-table';
import { useMemo, useState } from 'react';

export interface TextFilterTableOptions<T> {
  data: T[];
  columns: ColumnDef<T, any>[];
  /** The texts a row is searched in (matched case-insensitively). */
  textsOf(row: T): readonly string[];
  /** The one column the search runs over (the global filter runs once per row, not per column). */
  filterColumn: string;
  getRowId(row: T): string;
}

export function useTextFilterTable<T>({ data, columns, textsOf, filterColumn, getRowId }: TextFilterTableOptions<T>) {
  const [sorting, setSorting] = useState<SortingState>([]);
  const [text, setText] = useState('');
  const match = useMemo<FilterFn<T>>(
    () => (row, _col, query: string) => {
      const q = query.trim().toLowerCase();
      return !q || textsOf(row.original).some((t) => t.toLowerCase().includes(q));
    },
    [textsOf],
  );
  const table = useReactTable({
    data,
    columns,
    state: { sorting, globalFilter: text },
    onSortingChange: setSorting,
    onGlobalFilterChange: (v: unknown) => setText(typeof v === 'string' ? v : ''),
    globalFilterFn: match,
    getColumnCanGlobalFilter: (col) => col.id === filterColumn,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    getRowId,
  });
  return { table, text, setText };
}
