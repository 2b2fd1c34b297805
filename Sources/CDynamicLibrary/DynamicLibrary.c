#include "CDynamicLibrary.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

// pthread_once's routine takes no argument: the thread that runs it finds its library here.
static __thread fw_library *loading;

static void load_now(void) {
    fw_library *library = loading;
    void *handle = dlopen(library->file, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        snprintf(library->error, sizeof library->error, "%s could not be loaded (install Debian's %s): %s",
            library->file, library->package, reason != NULL ? reason : "unknown error");
        return;
    }
    for (size_t index = 0; index < library->symbolCount; index++) {
        void *address = dlsym(handle, library->symbols[index].name);
        if (address == NULL) {
            snprintf(library->error, sizeof library->error, "%s has no function %s: an unsupported version",
                library->file, library->symbols[index].name);
            // No address of a library that is closed again is left behind.
            for (size_t found = 0; found < index; found++) *library->symbols[found].address = NULL;
            dlclose(handle);
            return;
        }
        *library->symbols[index].address = address;
    }
    library->loaded = 1;
}

int fw_library_load(fw_library *library) {
    loading = library;
    pthread_once(&library->once, load_now);
    loading = NULL;
    return __atomic_load_n(&library->loaded, __ATOMIC_ACQUIRE);
}

const char *fw_library_error(const fw_library *library) { return library->error; }

static void *preload_main(void *library) {
    fw_library_load(library);
    return NULL;
}

void fw_library_preload(fw_library *library) {
    pthread_t thread;
    pthread_attr_t attributes;
    if (pthread_attr_init(&attributes) != 0) return;
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    // Without a thread, the first use loads the library itself.
    (void)pthread_create(&thread, &attributes, preload_main, library);
    pthread_attr_destroy(&attributes);
}
