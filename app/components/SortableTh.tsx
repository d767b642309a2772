// A column header of a TanStack table: a button that sorts by the column, with aria-sort saying how it is sorted.
import { flexRender, type Header, type Table } from '@tanstack/react-table';

/** `meta.numeric` right-aligns the column; `meta.title` is the header's tooltip. */
export function SortableTh<T>({ header }: { header: Header<T, unknown> }) {
  const column = header.column;
  const sorted = column.getIsSorted();
  const meta = column.columnDef.meta as { numeric?: boolean; title?: string } | undefined;
  const label = flexRender(column.columnDef.header, header.getContext());
  const canSort = column.getCanSort();
  return (
    <th scope="col" title={meta?.title} className={meta?.numeric ? 'num' : undefined} aria-sort={canSort ? (sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none') : undefined}>
      {canSort ? (
        <button type="button" className="sort" onClick={column.getToggleSortingHandler()}>
          <span className="sort-label">{label}</span>
          <span aria-hidden="true" className="sort-mark">
            {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}
          </span>
        </button>
      ) : (
        label
      )}
    </th>
  );
}

/** The header rows of a sortable table: one `SortableTh` per column. `rowIndex` sets `aria-rowindex` (virtual tables). */
export function SortableHead<T>({ table, rowIndex }: { table: Table<T>; rowIndex?: number }) {
  return (
    <>
      {table.getHeaderGroups().map((hg) => (
        <tr key={hg.id} aria-rowindex={rowIndex}>
          {hg.headers.map((h) => (
            <SortableTh key={h.id} header={h} />
          ))}
        </tr>
      ))}
    </>
  );
}
