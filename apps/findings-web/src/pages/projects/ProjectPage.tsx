export default function ProjectPage() {
  return <div>ProjectPage</div>;
}
