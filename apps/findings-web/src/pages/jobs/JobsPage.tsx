export default function JobsPage() {
  return <div>JobsPage</div>;
}
