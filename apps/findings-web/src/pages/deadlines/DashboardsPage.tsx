export default function DashboardsPage() {
  return <div>DashboardsPage</div>;
}
