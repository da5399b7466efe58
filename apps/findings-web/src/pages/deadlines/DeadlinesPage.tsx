export default function DeadlinesPage() {
  return <div>DeadlinesPage</div>;
}
