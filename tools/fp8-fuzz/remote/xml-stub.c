/* A stand-in for libxml2 where a fuzz bundle runs on a machine without it.
   libLLVM.so links libxml2 for Windows manifests only, which fp8-fuzz never
   reaches; its functions bind lazily, but xmlFree is a data symbol bound
   when the library loads, so it must exist (under its version node). */
void *xmlFree = 0;
