/** A tiny in-memory help desk: the sandbox behind the example tools. Nothing leaves the process. */

export interface Ticket {
  id: string;
  status: 'open' | 'pending' | 'closed';
  subject: string;
  customer: string;
}
interface Customer {
  email: string;
  plan: string;
  openTickets: number;
}
export type Severity = 'P1' | 'P2' | 'P3' | 'P4';

const tickets: Ticket[] = [
  { id: 'TCK-1001', status: 'open', subject: 'checkout-api returns 502 on payment', customer: 'ana@example.com' },
  { id: 'TCK-1002', status: 'pending', subject: 'Invoice PDF missing VAT number', customer: 'li@example.com' },
  { id: 'TCK-1003', status: 'open', subject: 'checkout-api slow for EU customers', customer: 'sam@example.com' },
  { id: 'TCK-1004', status: 'closed', subject: 'Password reset email delayed', customer: 'ana@example.com' },
];

const customers: Customer[] = [
  { email: 'ana@example.com', plan: 'business', openTickets: 1 },
  { email: 'li@example.com', plan: 'starter', openTickets: 1 },
  { email: 'sam@example.com', plan: 'enterprise', openTickets: 1 },
];

const runbookTitles = [
  'checkout-api: 5xx error rate runbook (https://runbooks.example.com/checkout-5xx)',
  'payments: provider failover (https://runbooks.example.com/payments-failover)',
];

let nextIncident = 1042;

export const desk = {
  searchTickets(query: string, status?: Ticket['status']): Ticket[] {
    const needle = query.toLowerCase();
    return tickets.filter((t) => t.subject.toLowerCase().includes(needle) && (!status || t.status === status));
  },
  ticket: (id: string) => tickets.find((t) => t.id === id),
  customer: (email: string) => customers.find((c) => c.email === email.toLowerCase()),
  runbooks: (query: string) => runbookTitles.filter((title) => title.toLowerCase().includes(query.toLowerCase())),
  declare(serviceName: string, severity: Severity) {
    return { incidentId: `INC-${nextIncident++}`, serviceName, severity, status: 'declared' as const };
  },
};
