"""torch.nn.Sequential, ModuleList and Flatten."""

from .module import Module


class _Indexed(Module):
    """Children kept in order, appended under their position's name."""

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())


class Sequential(_Indexed):
    """Children named "0", "1", ... (or by an OrderedDict's keys), applied in order."""

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], dict):
            for name, m in args[0].items():
                self.add_module(name, m)
        else:
            for i, m in enumerate(args):
                self.add_module(str(i), m)

    def __getitem__(self, idx):
        mods = list(self._modules.values())
        if isinstance(idx, slice):
            return Sequential(*mods[idx])
        if not -len(mods) <= idx < len(mods):
            raise IndexError(f"index {idx} is out of range")
        return mods[idx]

    def forward(self, input):
        for m in self._modules.values():
            input = m(input)
        return input


class ModuleList(_Indexed):
    def __init__(self, modules=None):
        super().__init__()
        for m in modules or ():
            self.append(m)

    def extend(self, modules):
        for m in modules:
            self.append(m)
        return self

    def __getitem__(self, idx):
        mods = list(self._modules.values())
        return ModuleList(mods[idx]) if isinstance(idx, slice) else mods[idx]


class Flatten(Module):
    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self):
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"
