// Vite's ?raw imports (a file's text), used by tests that read the server's own tables.
declare module '*?raw' {
  const content: string;
  export default content;
}
