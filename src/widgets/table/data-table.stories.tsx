import type { Story, StoryDefault } from "@ladle/react";
import { DataTable, type TableColumn } from "./data-table.tsx";

export default { title: "Widgets / Table" } satisfies StoryDefault;

type Person = { id: string; lastName: string; firstName: string; lastLogin: string | null };

const people: Person[] = [
  { id: "P10", lastName: "Ortega", firstName: "Lucía", lastLogin: "2025-03-02" },
  { id: "P2", lastName: "Adams", firstName: "Ben", lastLogin: null },
  { id: "P7", lastName: "Nguyen", firstName: "Mai", lastLogin: "2025-01-15" },
];

const columns: TableColumn<Person>[] = [
  { id: "lastName", header: "Last name", cell: (p) => p.lastName, sortValue: (p) => p.lastName },
  { id: "firstName", header: "First name", cell: (p) => p.firstName, sortValue: (p) => p.firstName },
  { id: "id", header: "Participant id", cell: (p) => p.id, sortValue: (p) => p.id },
  {
    id: "lastLogin",
    header: "Last login",
    cell: (p) => p.lastLogin ?? "Never",
    sortValue: (p) => p.lastLogin,
  },
];

const search = {
  label: "Search participants",
  matches: (p: Person, text: string) =>
    [p.lastName, p.firstName, p.id].some((value) => value.toLowerCase().includes(text.trim().toLowerCase())),
};

export const Sorted: Story = () => (
  <DataTable
    rows={people}
    columns={columns}
    rowKey={(p) => p.id}
    caption="Participants"
    initialSort={{ id: "lastName" }}
  />
);
export const Searchable: Story = () => (
  <DataTable
    rows={people}
    columns={columns}
    rowKey={(p) => p.id}
    caption="Participants"
    search={search}
    status={(shown, total) => `${shown} of ${total} shown`}
  />
);
export const StackedOnPhone: Story = () => (
  <DataTable rows={people} columns={columns} rowKey={(p) => p.id} caption="Participants" stackOnPhone />
);
export const Empty: Story = () => (
  <DataTable
    rows={[]}
    columns={columns}
    rowKey={(p) => p.id}
    caption="Participants"
    emptyText="No participants yet."
  />
);
