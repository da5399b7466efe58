export default function ProjectsPage() {
  return <div>ProjectsPage</div>;
}
