export default function PluginsPage() {
  return <div>PluginsPage</div>;
}
