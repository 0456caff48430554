; Markdown: one symbol per ATX section (heading through the end of its
; subsections), named by the heading text; nested sections qualify as
; `Intro.Install`. Setext headings do not open sections in this grammar,
; so they span just the heading lines.

(section . (atx_heading heading_content: (_) @name)) @definition.heading
(setext_heading heading_content: (_) @name) @definition.heading
