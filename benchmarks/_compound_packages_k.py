"""The package list of compound set k (benchmarks/compound.py), built blind: languages no other set holds (Emacs
Lisp, Common Lisp, Scheme, Racket, Tcl, Fish, Ada, Fortran, Pascal, Verilog). The rules of every list:
_compound_packages.py. Their truth is `_compound_symbols_k.script_symbols_k`.

Set k: projects in no other list (sets a-j, the held-out list, the public six), from Debian's orig tarballs where
the mirror serves two releases or more. It serves one release (or none) of most small projects the suites hold in
these languages: every Clojure library (tools-reader, core-async, data-json, ring, leiningen, clojure itself ...),
the cl-* libraries (alexandria, ppcre, esrap, closer-mop, iterate, usocket, babel), the small Emacs packages
(async, ivy, posframe, emacsql, transient, buttercup, magit, org-mode ...), guile-json/-ssh/-git/-gcrypt/-lib,
tklib, tkcon, tkabber, racket-mode, the Ada libraries (xmlada, templates-parser, anet, adasockets, gnatcoll), every D
project (dub, onedrive, tilix, gtk-d; ldc's three releases are served, but each under another top folder, so no two
share a path), Nim (nim, nim-regex, docopt), Haxe, Groovy (spock, gradle), the Bazel rules (Starlark) and the
Fortran libraries (netcdf-fortran, healpix; hdf5's releases are served, but its 1.14 Fortran modules hold
preprocessor lines the grammar cannot parse). So most projects here are the larger ones the mirror keeps several
of, each taken in the source folders a release pair can hold (MAX_PAIR_BYTES): Emacs's emacs-lisp files, helm,
AUCTeX, haskell-mode, notmuch's Emacs front end; SBCL's PCL, ECL's Lisp sources, Maxima's (CLISP's two snapshots
differ in no Lisp file); Guile's modules, GnuCash's reports, GIMP's Script-Fu scripts (Scheme); Racket's
`racket/private`; Tcl's and Tk's libraries, tcllib, git-gui (Tcl); fish's functions; GHDL's runtime and drivers
(Ada); LAPACK's free-form Fortran (`.f90`: the fixed-form `.f` sources do not parse as free form); yosys's cell
libraries (Verilog); Lazarus's lazutils and TAChart (Pascal). VHDL (ghdl's libraries), iverilog's tests and
glslang's test shaders are served but not taken.
"""

from __future__ import annotations

from benchmarks._compound_packages import _under, _v
from benchmarks._heldout_fetch import Package


def _files(prefix: str, names: str, ext: str = ".el") -> tuple[str, ...]:
    return tuple(f"{prefix}{n}{ext}" for n in names.split())


HELM = _files("helm-", "adaptive bookmark buffers color command dabbrev elisp epa eshell eval external fd find font "
              "for-files grep help id-utils imenu info lib locate man misc mode multi-match net occur regexp ring "
              "semantic source sys tags types utils x-files")  # not helm-core, helm-files: over 200 KB
HASKELL_MODE = (*_files("haskell-", "align-imports c2hs cabal collapse commands compile complete-module completions "
                        "customize debug decl-scan doc font-lock ghc-support hoogle indent indentation "
                        "interactive-mode lexeme load menu mode modules move-nested navigate-imports "
                        "presentation-mode process repl sandbox session sort-imports string svg utils"),
                "haskell.el", "inf-haskell.el", "ghc-core.el", "w3m-haddock.el")
AUCTEX = _files("", "bib-cite context font-latex tex-fold tex-info tex-jp texmathp toolbar-x tex-bar tex-style "
                    "plain-tex multi-prompt tex-ispell tex-font")  # not latex.el, tex.el: over 200 KB
TCLLIB = _under("modules", "struct", "textutil", "fileutil", "json", "csv", "uri", "cmdline", "logger", "doctools",
                "ncgi", "mime", "dns", "tepam", "markdown", "report", "term")
EMACS = _files("lisp/emacs-lisp/", "avl-tree backquote benchmark check-declare cl-generic cl-lib cl-macs cl-preloaded "
               "comp comp-cstr copyright crm cursor-sensor derived disass easy-mmode eieio-base eieio-custom "
               "eieio-datadebug eieio-opt eieio-speedbar elp ert ert-x ewoc find-func float-sup generic helper "
               "hierarchy inline let-alist lisp-mnt map map-ynp memory-report package-x pp radix-tree regexp-opt "
               "regi ring rmc seq shadow shortdoc shorthands subr-x tcover-ses text-property-search thunk timer "
               "timer-list tq trace unsafep warnings")  # 28.2..30.1 changes all of lisp/emacs-lisp: too big a pair
MAXIMA = _files("src/", "risch ratout combin laplac sinint defmfun-check commac transl init-cl trpred clmacs airy "
                "suprv1 mload acall macsys cl-info macdes lmdcls ifactor rat3e command-line trigi transq asum mactex "
                "expintegral numeric mlisp", ".lisp")  # 5.47 touches every file of src/: too big a pair
YOSYS = _under("techlibs", "common", "ice40", "gowin", "ecp5", "anlogic", "efinix", "gatemate", "intel", "sf2",
               "achronix", "coolrunner2", "greenpak4", "machxo2")  # not xilinx, nexus, quicklogic: too big
PACKAGES_K: tuple[Package, ...] = (
    Package("debian", "emacs", "elisp", _v("28.2+1 30.1+1 30.2+1"), EMACS, (".el",)),
    Package("debian", "helm", "elisp", _v("3.8.4 4.0.7"), HELM, (".el",)),
    Package("debian", "auctex", "elisp", _v("12.2 13.2"), AUCTEX, (".el",)),
    Package("debian", "haskell-mode", "elisp", _v("17.2 17.5"), HASKELL_MODE, (".el",)),
    Package("debian", "notmuch", "elisp", _v("0.37 0.39 0.40"), ("emacs",), (".el",)),  # its Emacs front end
    Package("debian", "sbcl", "commonlisp", _v("2.5.2 2.6.4"), ("src/pcl",), (".lisp",)),
    Package("debian", "ecl", "commonlisp", _v("21.2.1+ds 24.5.10.20250914.git294da20+dfsg"),
            ("src/lsp", "src/clos"), (".lsp", ".lisp")),
    Package("debian", "maxima", "commonlisp", _v("5.46.0 5.47.0"), MAXIMA, (".lisp",)),
    Package("debian", "guile-3.0", "scheme", _v("3.0.10+really3.0.10 3.0.11"), ("module",), (".scm",)),
    Package("debian", "gnucash", "scheme", _v("4.13 5.10 5.16"), ("gnucash/report/reports",), (".scm",)),
    Package("debian", "gimp", "scheme", _v("2.10.34 3.0.4 3.2.6"), ("plug-ins/script-fu/scripts",),
            (".scm",)),  # its Script-Fu scripts
    Package("debian", "racket", "racket", _v("8.7+dfsg1 8.16+dfsg1 8.18+dfsg1"), ("collects/racket/private",),
            (".rkt",)),  # not all of collects/racket: too big a pair
    Package("debian", "tcl8.6", "tcl", _v("8.6.13+dfsg 8.6.16+dfsg 8.6.18+dfsg"), ("library",), (".tcl",)),
    Package("debian", "tk8.6", "tcl", _v("8.6.13 8.6.18"), ("library",), (".tcl",)),
    Package("debian", "tcllib", "tcl", _v("1.20+dfsg 1.21+dfsg"), TCLLIB, (".tcl",)),
    Package("debian", "git", "tcl", _v("2.39.5 2.47.3 2.53.0 2.55.0"), ("git-gui/lib",), (".tcl",)),  # git-gui's
    Package("debian", "fish", "fish", _v("3.6.0 4.0.2"), ("share/functions",), (".fish",)),
    Package("debian", "ghdl", "ada", _v("2.0.0+dfsg 5.0.1+dfsg"), _under("src", "grt", "psl", "edif", "ghdldrv"),
            (".adb",)),
    Package("debian", "lapack", "fortran", _v("3.11.0 3.12.1"), ("SRC", "BLAS"), (".f90", ".F90")),
    Package("debian", "yosys", "verilog", _v("0.23 0.52 0.66"), YOSYS, (".v",)),  # its cell libraries
    Package("debian", "lazarus", "pascal", _v("4.0+dfsg 4.8+dfsg"), _under("components", "lazutils", "tachart"),
            (".pas", ".pp")),
)
