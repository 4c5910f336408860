/** The two benchmark components: about 1.3 KB and 50 KB of HTML, with styles and scripts to extract. */
export function smallPage(): string {
  const page = `<!doctype html><html><head><meta charset="utf-8"><title>Price tag</title>
<link rel="stylesheet" href="https://cdn.example/tag.css">
<style>.tag{display:inline-flex;gap:.25rem;padding:.25rem .5rem;border-radius:4px;background:#fff3cd;color:#664d03;font:600 14px/1.2 system-ui}.tag s{opacity:.6}</style>
</head><body><span class="tag"><s>€49.00</s> €39.00</span>
<script type="module">const el=document.querySelector('.tag');el.addEventListener('click',()=>el.classList.toggle('open'));</script>
</body></html>`;
  return page + `<!--${'x'.repeat(Math.max(0, 1300 - page.length - 7))}-->`;
}

export function largePage(): string {
  const rules = Array.from({ length: 300 }, (_, i) => `.c${i}{color:#${((i * 2654435761) % 0xffffff).toString(16).padStart(6, '0')};margin:${i % 13}px ${i % 7}px}`);
  const items = Array.from({ length: 400 }, (_, i) => `<li class="c${i % 300}"><a href="/p/${i}">Product ${i}</a> <span>€${(i * 1.37).toFixed(2)}</span></li>`);
  let page = `<!doctype html><html><head><meta charset="utf-8"><title>Catalogue</title><style>${rules.join('\n')}</style>
<script src="https://cdn.example/catalogue.js" defer></script></head><body><ul>${items.join('\n')}</ul>
<script>document.querySelectorAll('li').forEach((li)=>li.addEventListener('mouseenter',()=>li.classList.add('hover')));</script></body></html>`;
  while (page.length < 50 * 1024) page = page.replace('</body>', '<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p></body>');
  return page;
}
