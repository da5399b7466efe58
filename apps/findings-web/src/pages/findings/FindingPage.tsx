export default function FindingPage() {
  return <div>FindingPage</div>;
}
