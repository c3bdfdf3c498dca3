# The install stage of a build with the mgnify tool holds the binary, its bash and
# zsh completion and its man page where a system install puts them, and the
# installed binary runs.
#   cmake -DSTAGE=DIR -DBINDIR=bin -DDATADIR=share -DMANDIR=share/man -DVERSION=X.Y.Z -P this
set(expected
    "${BINDIR}/mgnify"
    "${DATADIR}/bash-completion/completions/mgnify"
    "${DATADIR}/zsh/site-functions/_mgnify"
    "${MANDIR}/man1/mgnify.1")
foreach(relative IN LISTS expected)
  if(NOT EXISTS "${STAGE}/${relative}")
    message(FATAL_ERROR "the install stage has no ${relative}")
  endif()
  file(SIZE "${STAGE}/${relative}" size)
  if(size EQUAL 0)
    message(FATAL_ERROR "the installed ${relative} is empty")
  endif()
endforeach()

# The completion scripts name the command they complete; the page is a man page for it.
file(READ "${STAGE}/${DATADIR}/bash-completion/completions/mgnify" bash_script)
if(NOT bash_script MATCHES "complete [^\n]* mgnify")
  message(FATAL_ERROR "the bash completion does not register for mgnify")
endif()
file(READ "${STAGE}/${DATADIR}/zsh/site-functions/_mgnify" zsh_script)
if(NOT zsh_script MATCHES "^#compdef mgnify")
  message(FATAL_ERROR "the zsh completion does not start with #compdef mgnify")
endif()
file(READ "${STAGE}/${MANDIR}/man1/mgnify.1" page)
if(NOT page MATCHES "\\.TH \"?MGNIFY\"? \"?1")
  message(FATAL_ERROR "mgnify.1 has no .TH MGNIFY 1 header")
endif()

# The installed binary, run from the stage: its version, and its help naming the commands.
execute_process(COMMAND "${STAGE}/${BINDIR}/mgnify" --version RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0 OR NOT out MATCHES "${VERSION}")
  message(FATAL_ERROR "installed mgnify --version exited ${rc}: '${out}' '${err}' (want ${VERSION})")
endif()
execute_process(COMMAND "${STAGE}/${BINDIR}/mgnify" --help RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "abundance-table" OR NOT out MATCHES "samples-table")
  message(FATAL_ERROR "installed mgnify --help exited ${rc}: '${out}' '${err}'")
endif()
message(STATUS "installed tool: ${expected}")
