/**
 * The sortable and searchable table (spec 02 section 2): TanStack Table sorts the rows (a
 * header button per sortable column, aria-sort on its header cell); an optional search box
 * above filters them with the caller's rule. The table fits its page's width (cells wrap between
 * words, headers never inside one) and its header row sticks under the app's sticky header while
 * a long table scrolls by. A table that cannot fit scrolls sideways in a focusable region instead
 * (overflow-watch.ts); with stackOnPhone a phone shows each row as a card labelled by the column
 * names.
 */
import { Trans } from "@lingui/react/macro";
import {
  createSortedRowModel,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type ColumnDef,
  type RowData,
  type SortingState,
} from "@tanstack/react-table";
import { useCallback, useId, useMemo, useState, type ReactNode } from "react";
import "./data-table.css";
import { watchOverflow } from "./overflow-watch.ts";
import { SearchBox } from "./search-box.tsx";
import { compareSortValues, type SortValue } from "./sort-values.ts";
import { rowLinksRef } from "./row-links.ts";

export type TableColumn<Row> = {
  id: string;
  /** The column's name: its header, and each cell's label when rows stack on a phone. */
  header: string;
  /** The header is read by screen readers only (a chevron column). */
  hideHeader?: boolean;
  cell: (row: Row) => ReactNode;
  /** The value the column sorts by; without it the column does not sort. Null sorts last. */
  sortValue?: (row: Row) => SortValue;
  className?: string;
  /** The cells never wrap (a subject id, a date): the other columns wrap around them. */
  nowrap?: boolean;
};

export type TableSearch<Row> = {
  label: string;
  hint?: string;
  /** Whether a row matches the (untrimmed) text; called only for a non-blank text. */
  matches: (row: Row, text: string) => boolean;
};

export type DataTableProps<Row extends RowData> = {
  rows: readonly Row[];
  columns: readonly TableColumn<Row>[];
  rowKey: (row: Row) => string;
  caption: string;
  search?: TableSearch<Row>;
  initialSort?: { id: string; descending?: boolean };
  /** Shown instead of the table when there are no rows at all. */
  emptyText?: ReactNode;
  /** Says how many rows are shown, under the search box (a status). */
  status?: (shown: number, total: number) => ReactNode;
  className?: string;
  stackOnPhone?: boolean;
  /** Each row holds one `.row-link`: a click anywhere on the row follows it (row-links.ts). */
  rowLinks?: boolean;
};

const features = tableFeatures({ rowSortingFeature, sortedRowModel: createSortedRowModel() });

export function DataTable<Row extends RowData>({
  rows,
  columns,
  rowKey,
  caption,
  search,
  initialSort,
  emptyText,
  status,
  className,
  stackOnPhone = false,
  rowLinks = false,
}: DataTableProps<Row>) {
  const statusId = useId();
  const [text, setText] = useState("");
  const [overflows, setOverflows] = useState(false);
  const regionRef = useCallback((region: HTMLDivElement | null) => {
    if (!region) return undefined;
    return watchOverflow(region, setOverflows);
  }, []);
  const [sorting, setSorting] = useState<SortingState>(
    initialSort ? [{ id: initialSort.id, desc: initialSort.descending ?? false }] : [],
  );
  const shownRows = useMemo(
    () => (search && text.trim() !== "" ? rows.filter((row) => search.matches(row, text)) : [...rows]),
    [rows, search, text],
  );
  const columnDefs = useMemo<ColumnDef<typeof features, Row>[]>(
    () =>
      columns.map((column) => {
        const sortValue = column.sortValue;
        return {
          id: column.id,
          accessorFn: (row: Row) => (sortValue ? (sortValue(row) ?? undefined) : undefined),
          header: column.header,
          enableSorting: sortValue !== undefined,
          sortDescFirst: false,
          // Null (never, none) sorts after the values whichever the direction.
          sortUndefined: "last" as const,
          sortFn: (a, b, columnId) =>
            compareSortValues(a.getValue<SortValue>(columnId), b.getValue<SortValue>(columnId)),
        };
      }),
    [columns],
  );
  const table = useTable({
    features,
    columns: columnDefs,
    data: shownRows,
    getRowId: (row) => rowKey(row),
    state: { sorting },
    onSortingChange: setSorting,
    enableSortingRemoval: false,
  });
  const byId = new Map(columns.map((column) => [column.id, column]));
  const sortedRows = table.getRowModel().rows;
  const tableClasses = [
    "data-table",
    stackOnPhone ? "data-table--stack-on-phone" : "",
    rowLinks ? "data-table--rows-link" : "",
    className ?? "",
  ];

  return (
    <div className="data-table-widget">
      {search ? (
        <SearchBox
          label={search.label}
          hint={search.hint}
          value={text}
          onChange={setText}
          describedBy={status ? statusId : undefined}
        />
      ) : null}
      {status ? (
        <p id={statusId} className="data-table-widget__status" role="status">
          {status(shownRows.length, rows.length)}
        </p>
      ) : null}
      {rows.length === 0 && emptyText ? (
        <p className="empty-state" role="status">
          {emptyText}
        </p>
      ) : shownRows.length === 0 ? (
        <p className="empty-state" role="status">
          <Trans id="clinro_no_matches_found">No matches found</Trans>
        </p>
      ) : (
        // A scrolling region must take focus for keyboard users to scroll it (WCAG 2.1.1); one that
        // fits its table does not scroll.
        <div
          ref={regionRef}
          className={overflows ? "table-scroll table-scroll--overflows" : "table-scroll"}
          role="region"
          // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
          tabIndex={overflows ? 0 : undefined}
          aria-label={caption}
        >
          <table ref={rowLinks ? rowLinksRef : undefined} className={tableClasses.filter(Boolean).join(" ")}>
            <caption className="visually-hidden">{caption}</caption>
            <thead>
              {table.getHeaderGroups().map((group) => (
                <tr key={group.id}>
                  {group.headers.map((header) => {
                    const column = byId.get(header.column.id);
                    const sorted = header.column.getIsSorted();
                    const canSort = header.column.getCanSort();
                    const name = column?.header ?? header.column.id;
                    return (
                      <th
                        key={header.id}
                        scope="col"
                        className={canSort ? "data-table__sortable" : undefined}
                        aria-sort={
                          canSort
                            ? sorted === "asc"
                              ? "ascending"
                              : sorted === "desc"
                                ? "descending"
                                : "none"
                            : undefined
                        }
                      >
                        {canSort ? (
                          <button
                            type="button"
                            className="sort-button"
                            onClick={header.column.getToggleSortingHandler()}
                          >
                            {name}
                            <span className="sort-button__icon" aria-hidden="true">
                              {sorted === "asc" ? "▲" : sorted === "desc" ? "▼" : "↕"}
                            </span>
                          </button>
                        ) : column?.hideHeader ? (
                          <span className="visually-hidden">{name}</span>
                        ) : (
                          name
                        )}
                      </th>
                    );
                  })}
                </tr>
              ))}
            </thead>
            <tbody>
              {sortedRows.map((row) => (
                <tr key={row.id}>
                  {columns.map((column, index) => (
                    <td
                      key={column.id}
                      className={
                        [column.className, column.nowrap ? "data-table__nowrap" : ""]
                          .filter(Boolean)
                          .join(" ") || undefined
                      }
                      data-label={index > 0 && !column.hideHeader ? column.header : undefined}
                      aria-hidden={column.hideHeader || undefined}
                    >
                      {column.cell(row.original)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
