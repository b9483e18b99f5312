// `import text from '<file>?raw'`: a file's text, as Vite imports it (a Vite project has this from vite/client).
// msw.browser.page.ts is written the way a Vite app would write it; msw.browser.test.ts bundles it with esbuild,
// which reads such imports as text too.
declare module '*?raw' {
  const text: string;
  export default text;
}
